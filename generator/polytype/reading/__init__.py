"""Reading a schema file: YAML or JSON parsed with the line and column of every node."""
