"""Games saved as JSON and loaded back."""
