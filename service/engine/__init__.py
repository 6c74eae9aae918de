"""One command's flow: load (snapshot + tail), decide through the game's protocol, append, dispatch jobs; tokens."""
