"""Who moves: the players built on the game (issue 17, §4), which the game modules never import.

* :mod:`aluette.players.protocol`: what a bot is given (its own seat's :class:`~aluette.records.View`) and what it
  returns (a :class:`~aluette.players.protocol.Decision`);
* :mod:`aluette.players.bots`: :class:`~aluette.players.bots.RandomBot`, :class:`~aluette.players.bots.HeuristicBot`;
* :mod:`aluette.players.drivers`: the one bot policy and the code that asks players for moves and applies them
  (``play_deal``, ``play_match``, ``bots_for``, ``make_bot``), and the trivial stand-in ``simple_move``;
* :mod:`aluette.players.session`: a match session, who plays each seat (a person or a bot);
* :mod:`aluette.players.seat_port`: a seat at a table as its screen sees it (``SeatPort``).

The public names (``HeuristicBot``, ``RandomBot``, ``Decision``, ``play_deal``, ``play_match``) are also
:mod:`aluette`'s.
"""
