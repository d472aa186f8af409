"""Files in and out: the match file, the CSV of the hands."""
