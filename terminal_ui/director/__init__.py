"""The tournament director's console: overview, timelines, rulings and exports."""
