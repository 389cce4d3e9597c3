"""The fetch stack: URL policy, SSRF guard, guarded clients, capped fetches, part loading."""
