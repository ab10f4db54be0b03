"""Recurrent cells (LSTMCell, GRUCell, RNNCell) and their activation functions."""
