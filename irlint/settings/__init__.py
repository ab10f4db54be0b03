"""What a project or CI sets around a check, apart from the models: the configuration file (`config`),
per-file ignores (`perfile`) and the baseline of accepted findings (`baseline`). The core (loader,
rules engine, interpreter) never imports them; the CLI applies them to what the core reports."""
