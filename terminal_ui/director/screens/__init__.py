"""The director console's screens: the timeline, a ruling, an export."""
