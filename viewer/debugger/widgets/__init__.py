"""The debugger's widgets, one per module; each knows how to draw itself from the Session it is given
and posts messages, the App wires them together."""
