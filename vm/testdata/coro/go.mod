module coro

go 1.26
