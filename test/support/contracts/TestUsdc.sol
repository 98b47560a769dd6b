// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A 6-decimal ERC-20 like USDC, for tests on a local chain: anyone may mint.
contract TestUsdc is ERC20 {
    constructor() ERC20("Test USD Coin", "USDC") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}

/// An ordinary 18-decimal ERC-20 (OpenZeppelin's default), which a USDC provider must refuse.
contract TestEighteenDecimals is ERC20 {
    constructor() ERC20("Test Ether Token", "TET") {}
}
