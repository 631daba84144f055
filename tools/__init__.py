"""Stand-alone tools that check the project from outside: they read its data files directly and
share no code with the parts they check."""
