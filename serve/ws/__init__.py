"""The websocket edge: the Fanout actor that serves ``/ws`` on each node (push channels and orders),
its subscription registry, and the order desk that takes orders over a socket."""
