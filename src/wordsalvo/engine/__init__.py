"""Engines above the game: the players of every level (``bot.py``), games between them in C
(``selfplay.py``) and on many cores or a Dask cluster (``autoplay.py``), leave tables
trained by self-play (``leave_training.py``) and win-probability models (``winprob.py``).
They use the game and the generator; nothing below imports them."""
