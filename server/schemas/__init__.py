"""Pydantic models of everything the API sends and receives, published in /openapi.json."""
