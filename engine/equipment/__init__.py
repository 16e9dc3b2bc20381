"""The equipment as data: tile sets, board layouts, the board and racks."""
