"""The scoring engine and the storage beside it: plain Python, no Flask."""
