"""The history of hands: each hand's changes, and the hands deleted and offered back."""
