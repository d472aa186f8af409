"""The match file (MATCHFILE.md) and the CSV of the hands: what goes in and out as files."""
