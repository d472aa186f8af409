"""The tables and their doors: a table's passphrase and logins, its players, joining by QR code."""
