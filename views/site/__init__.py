"""The site's plumbing: the connection, the errors, the languages, the page cache, serving."""
