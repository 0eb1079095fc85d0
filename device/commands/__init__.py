"""One module per `pipkeeper` subcommand; see `device.cli`."""
