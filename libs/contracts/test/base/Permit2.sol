// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Vm, VM_ADDRESS} from "./Vm.sol";

/// @dev v4-periphery's `DeployPermit2` (its npm package's Foundry artifact): it places Permit2's published runtime
/// code at Permit2's canonical address. Its immutables are those of the build it was taken from: a cached chain id
/// of 31337 and a domain separator of another address. On any other chain Permit2 computes its domain separator, so
/// the tests that sign run on chain 999 (`RouterV2Permit2Fixture`).
string constant DEPLOY_PERMIT2_ARTIFACT =
    "../../node_modules/@uniswap/v4-periphery/foundry-out/DeployPermit2.sol/DeployPermit2.json";

/// @dev Permit2's address on the chains it is deployed to.
address constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;

interface IDeployPermit2 {
    function deployPermit2() external returns (address);
}

/// @notice Places Permit2 at its canonical address (once per test contract; again is a no-op) and returns it.
function deployPermit2() returns (address permit2) {
    if (PERMIT2.code.length != 0) return PERMIT2;
    Vm vm = Vm(VM_ADDRESS);
    bytes memory code = vm.parseBytes(vm.parseJsonString(vm.readFile(DEPLOY_PERMIT2_ARTIFACT), ".bytecode.object"));
    address deployer;
    assembly ("memory-safe") {
        deployer := create(0, add(code, 0x20), mload(code))
    }
    permit2 = IDeployPermit2(deployer).deployPermit2();
}
