"""The Pi clock, on gpiozero's mock pins and luma's dummy displays."""
