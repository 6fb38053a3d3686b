"""Tools built on the public API: the `boardkit` command line and random simulations."""
