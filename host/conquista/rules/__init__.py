"""Pure rules: map, rulesets, game state, actions, events. No I/O beyond loading data, no random, no clock."""
