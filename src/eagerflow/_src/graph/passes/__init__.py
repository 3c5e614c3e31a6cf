"""Graph passes: rewrites of a traced graph's program before it is compiled (see `pipeline`)."""
