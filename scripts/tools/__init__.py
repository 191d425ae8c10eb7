"""Tools a maintainer runs: the offline copy and its zip, and the scaffold of a new (or provisional) release page
pair. They sit on top of every layer."""
