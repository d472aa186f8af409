"""The web layer: each view turns a request into one call on the models and a response."""
