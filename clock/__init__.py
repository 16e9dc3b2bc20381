"""The live side of one table: an asyncio service that stamps, commits and publishes
every command (not built yet; see docs/architecture.md)."""
