"""The checked model of a ruleset: typed, frozen data that the compiler reads and nothing runs."""
