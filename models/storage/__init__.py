"""The storage: the engines, the schema and its migrations, the unit of work and the stores."""
