"""The chain watchers' actors (store/chain/watch.py holds their logic)."""
