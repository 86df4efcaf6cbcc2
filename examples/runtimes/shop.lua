--[[ shop.lua: a Lua program with a provider of its own (shop: order-placed,
order-shipped) and the runtime provider of the binding (lua_rt:
function-entry and -return), read by orders.d and hottest_lua.d.

  LUA_CPATH='build/bindings/lua/?.so;;' lua5.4 shop.lua [ORDERS]

Order i (from 0) is of ITEMS[i % 3], i % 4 + 1 of them; every other
order (i even) ships.
]]
local dtrace = require("dtrace") -- lua_rt:::function-entry, hooked only while traced

local ITEMS = { { "apple", 30 }, { "pear", 45 }, { "plum", 25 } } -- price in cents
local PRICE = { apple = 30, pear = 45, plum = 25 }

local shop = dtrace.provider("shop")
local placed = shop:probe("order-placed", "string", "int", "int") -- item, quantity, cents
local shipped = shop:probe("order-shipped", "string", "int") -- item, quantity
shop:enable() -- under dtrace -Z -c: returns once the tracer has attached

local function price(item, qty)
	return PRICE[item] * qty
end

local function place(item, qty)
	placed:fire(item, qty, price(item, qty))
end

local function ship(item, qty)
	shipped:fire(item, qty)
end

local function main(n)
	for i = 0, n - 1 do
		local item = ITEMS[i % 3 + 1][1]
		place(item, i % 4 + 1)
		if i % 2 == 0 then
			ship(item, i % 4 + 1)
		end
	end
end

-- a tracer of lua_rt sets the hook within the watcher's first look: a
-- script that counts every call (hottest_lua.d) waits for it; untraced,
-- nothing is waited for
if dtrace.runtime_enabled()["function-entry"] then
	dtrace.runtime_wait(5, "function-entry")
end
main(tonumber(arg[1]) or 30)
