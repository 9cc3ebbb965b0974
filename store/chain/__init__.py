"""Real chains (issue 28): one module per concern, so a process imports only what it may hold.

- ``keys``: deposit addresses derived from account-level extended *public* keys. The API and the
  watchers import this and nothing that can spend.
- ``custody``: the hot wallet's key source (a mnemonic from a file or an environment variable) that
  only the Signer reads, and the development key generator that writes the xpub file ``keys`` reads.
"""
