# pragma version ~=0.4.3
"""
@title Dev USDT
@notice A minimal ERC20 with 6 decimals, like Tether's, for the development chain and the tests. The
        whole supply is minted to the deployer (the dev faucet account). Never deployed on a real chain.
"""

event Transfer:
    sender: indexed(address)
    receiver: indexed(address)
    value: uint256


event Approval:
    owner: indexed(address)
    spender: indexed(address)
    value: uint256


name: public(String[32])
symbol: public(String[8])
decimals: public(uint8)
totalSupply: public(uint256)
balanceOf: public(HashMap[address, uint256])
allowance: public(HashMap[address, HashMap[address, uint256]])


@deploy
def __init__(supply: uint256):
    self.name = "Tether USD (dev chain)"
    self.symbol = "USDT"
    self.decimals = 6
    self.totalSupply = supply
    self.balanceOf[msg.sender] = supply
    log Transfer(sender=empty(address), receiver=msg.sender, value=supply)


@external
def transfer(receiver: address, amount: uint256) -> bool:
    # uint256 arithmetic reverts on underflow: no transfer beyond the balance.
    self.balanceOf[msg.sender] -= amount
    self.balanceOf[receiver] += amount
    log Transfer(sender=msg.sender, receiver=receiver, value=amount)
    return True


@external
def approve(spender: address, amount: uint256) -> bool:
    self.allowance[msg.sender][spender] = amount
    log Approval(owner=msg.sender, spender=spender, value=amount)
    return True


@external
def transferFrom(owner: address, receiver: address, amount: uint256) -> bool:
    self.allowance[owner][msg.sender] -= amount
    self.balanceOf[owner] -= amount
    self.balanceOf[receiver] += amount
    log Transfer(sender=owner, receiver=receiver, value=amount)
    return True
