"""The recall cascade and the searches on every transport: its catalogue records
(``catalog``), wire shapes (``wire``), MCP results (``mcp_out``), REST models and routes
(``rest``) and command-line handlers (``commands``), each where the capability has one."""
