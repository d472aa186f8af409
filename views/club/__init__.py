"""A table as a club: its ladder of ratings, and tonight across every match with the next pairings."""
