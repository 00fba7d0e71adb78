module example.com/max

go 1.26
