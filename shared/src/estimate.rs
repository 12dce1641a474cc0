//! Memory estimates for ZeRO 0-3.
