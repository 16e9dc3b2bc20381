"""Clock devices as the table service sees them: the interface, the one clock core every
emulated clock keeps time with, and the in-process emulated clock."""
