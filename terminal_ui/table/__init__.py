"""The table terminal for the two players: the app, its screens and the command parser."""
