"""Any ruleset for agent libraries: PettingZoo environments and OpenSpiel games (optional extras)."""
