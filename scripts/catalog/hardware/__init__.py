"""The machine facts written once (docs/.hardware.yml): `model` holds the typed records, `file` reads and checks the
file with the line of every problem."""
