"""Following a match live: the fragments, the quiet polls, the read-only link and the big screen."""
