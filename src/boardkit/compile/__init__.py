"""The checked model compiled to one Python module per ruleset, and the cache of compiled rules."""
