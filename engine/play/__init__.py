"""How a play is written (notation), placed and scored (placement), and judged (the word list)."""
