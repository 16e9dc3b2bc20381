"""What every screen shares: widgets, the theme, the stylesheet and the data folder."""
