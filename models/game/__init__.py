"""The game: the rules, the hands and the fold, plain Python that imports no storage, file or Flask."""
