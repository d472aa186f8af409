"""A match and its hands: the match page, the hand form and every write to them."""
