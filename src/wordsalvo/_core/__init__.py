"""Private Cython wrappers around the C core (csrc/).  Not a public API."""
