"""Neural-network ops: convolutions, pooling, normalisation, quantisation, resizing and attention."""
