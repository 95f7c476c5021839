"""The referee at the table: gestures (taps, presses, encoder turns) in, game actions and LED scenes out.

Pure like the rules: the clock is a number passed in, dice come from an injected source, so tests step time.
"""
