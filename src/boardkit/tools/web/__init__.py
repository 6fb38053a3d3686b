"""``boardkit serve``: play, replay and playtest any ruleset in the browser (the ``web`` extra)."""
