"""The storage contract: small Protocols every backend meets."""
