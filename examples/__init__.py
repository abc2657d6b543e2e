"""Example bots to copy: run one with pokerroom bot run examples.my_bot:MyBot."""
