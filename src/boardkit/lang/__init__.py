"""The rule language: text to syntax tree (parse), syntax tree to checked model (check), warnings (lint)."""
